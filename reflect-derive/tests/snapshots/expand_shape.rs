#[allow(non_upper_case_globals, non_snake_case, non_camel_case_types, clippy::all)]
const _: () = {
    const __VARIANTS: ::reflect::reflect_core::derived::Variants = ::reflect::reflect_core::derived::Variants::new(
        "Shape",
        &[
            ::reflect::reflect_core::Opt { label: "Dot", weight: 2u32 },
            ::reflect::reflect_core::Opt { label: "Line", weight: 1u32 },
            ::reflect::reflect_core::Opt { label: "Group", weight: 1u32 },
        ],
        2usize,
    );
    #[doc(hidden)]
    struct __ReflectGen<__G0, __G1>
    where
        __G0: ::reflect::reflect_core::Gen<Value = Vec<Shape>>,
        __G1: ::reflect::reflect_core::Gen<Value = String>,
    {
        __g_Group_parts: __G0,
        __g_Group_name: __G1,
        __marker: ::core::marker::PhantomData<fn() -> Shape>,
    }
    impl<__G0, __G1> __ReflectGen<__G0, __G1>
    where
        __G0: ::reflect::reflect_core::Gen<Value = Vec<Shape>>,
        __G1: ::reflect::reflect_core::Gen<Value = String>,
    {
        fn __assume(__value: &Shape) -> bool {
            {
                let __reflect_self = __value;
                ::reflect::reflect_core::derived::assume_bool(__reflect_self.depth() < 4)
            }
        }
        #[allow(unused_variables, clippy::all)]
        fn __run_variant<__A: ::reflect::reflect_core::source::Answerer + ?::core::marker::Sized>(
            &self,
            __c: u64,
            __src: &mut __A,
        ) -> ::core::result::Result<Shape, ::reflect::reflect_core::Stop> {
            match __c {
                0u64 => ::core::result::Result::Ok(Shape::Dot),
                1u64 => {
                    let __f_0: u8 = {
                        ::reflect::reflect_core::derived::run_part(
                            &::reflect::reflect_core::combinators::ConstInt::<
                                u8,
                                {
                                    let __bound: u8 = 1;
                                    __bound as i128
                                },
                                {
                                    let __bound: u8 = 9;
                                    __bound as i128
                                },
                            >::new("Shape::Line.0"),
                            "Shape::Line.0",
                            __src,
                        )
                    }?;
                    ::core::result::Result::Ok(Shape::Line(__f_0))
                }
                2u64 => {
                    let __f_parts: Vec<Shape> =
                        ::reflect::reflect_core::derived::run_part(&self.__g_Group_parts, "Shape::Group.parts", __src)?;
                    let __f_name: String =
                        ::reflect::reflect_core::derived::run_part(&self.__g_Group_name, "Shape::Group.name", __src)?;
                    ::core::result::Result::Ok(Shape::Group { parts: __f_parts, name: __f_name })
                }
                _ => ::core::result::Result::Err(::reflect::reflect_core::Stop::Rejected),
            }
        }
        #[doc = r" The value, made once."]
        #[allow(unused_variables)]
        #[inline]
        fn __once<__A: ::reflect::reflect_core::source::Answerer + ?::core::marker::Sized>(
            &self,
            __src: &mut __A,
            __frame: &::reflect::reflect_core::derived::Frame,
        ) -> ::core::result::Result<Shape, ::reflect::reflect_core::Stop> {
            let __limited = __frame.at_limit(::reflect::reflect_core::derived::DEFAULT_DEPTH);
            let __c = __VARIANTS.choose(__src, __limited)?;
            let __r = self.__run_variant(__c, __src);
            ::reflect::reflect_core::source::Answerer::leave(__src);
            __r
        }
        #[doc = r" The value, made again while it fails the condition on every value."]
        #[inline]
        fn __every<__A: ::reflect::reflect_core::source::Answerer + ?::core::marker::Sized>(
            &self,
            __src: &mut __A,
            __frame: &::reflect::reflect_core::derived::Frame,
        ) -> ::core::result::Result<Shape, ::reflect::reflect_core::Stop> {
            ::reflect::reflect_core::combinators::retrying(
                __src,
                ::reflect::reflect_core::combinators::DEFAULT_RETRIES,
                |__src| self.__once(__src, &__frame),
                Self::__assume,
            )
        }
        #[doc = r" The one forward body, for both `run` and `run_rng`."]
        #[allow(unused_variables)]
        #[inline]
        fn __forward<__A: ::reflect::reflect_core::source::Answerer + ?::core::marker::Sized>(
            &self,
            __src: &mut __A,
        ) -> ::core::result::Result<Shape, ::reflect::reflect_core::Stop> {
            let __frame = ::reflect::reflect_core::derived::Frame::enter();
            if __frame.too_deep() {
                return ::core::result::Result::Err(::reflect::reflect_core::Stop::Void);
            }
            self.__every(__src, &__frame)
        }
    }
    impl ::reflect::reflect_core::Reflective for Shape {
        fn generator() -> ::reflect::reflect_core::BoxGen<Self> {
            ::reflect::reflect_core::derived::cached::<Self>(|| -> ::reflect::reflect_core::BoxGen<Shape> {
                ::std::rc::Rc::new(__ReflectGen::<_, _> {
                    __g_Group_parts: ::reflect::reflect_core::derived::SeqField::<_, Vec<Shape>>::new(
                        "Shape::Group.parts",
                        0,
                        3,
                        ::reflect::reflect_core::derived::DEFAULT_DEPTH,
                        true,
                        ::reflect::reflect_core::combinators::lazy(|| {
                            <Shape as ::reflect::reflect_core::Reflective>::generator()
                        }),
                    ),
                    __g_Group_name: ::reflect::reflect_core::regex::regex("[a-z]{1,4}"),
                    __marker: ::core::marker::PhantomData,
                })
            })
        }
    }
    impl<__G0, __G1> ::reflect::reflect_core::Gen for __ReflectGen<__G0, __G1>
    where
        __G0: ::reflect::reflect_core::Gen<Value = Vec<Shape>>,
        __G1: ::reflect::reflect_core::Gen<Value = String>,
    {
        type Value = Shape;
        fn run(
            &self,
            __src: &mut dyn ::reflect::reflect_core::Source,
        ) -> ::core::result::Result<Shape, ::reflect::reflect_core::Stop> {
            self.__forward(__src)
        }
        fn run_rng(
            &self,
            __rng: &mut ::reflect::reflect_core::DetRng,
        ) -> ::core::result::Result<Shape, ::reflect::reflect_core::Stop> {
            self.__forward(__rng)
        }
        #[allow(unused_variables)]
        fn back(&self, __target: &Shape) -> ::std::vec::Vec<::reflect::reflect_core::Way> {
            if !Self::__assume(__target) {
                return ::std::vec::Vec::new();
            }
            let __frame = ::reflect::reflect_core::derived::Frame::enter();
            if __frame.too_deep() {
                return ::std::vec::Vec::new();
            }
            let __limited = __frame.at_limit(::reflect::reflect_core::derived::DEFAULT_DEPTH);
            #[allow(unused_variables)]
            match __target {
                Shape::Dot => {
                    let __fields = (|| -> ::std::vec::Vec<::reflect::reflect_core::Way> {
                        #[allow(unused_mut)]
                        let mut __ways = ::std::vec![::reflect::reflect_core::Way::empty()];
                        __ways
                    })();
                    __VARIANTS.ways(__limited, 0usize, __fields)
                }
                Shape::Line(__f_0, ..) => {
                    let __fields = (|| -> ::std::vec::Vec<::reflect::reflect_core::Way> {
                        #[allow(unused_mut)]
                        let mut __ways = ::std::vec![::reflect::reflect_core::Way::empty()];
                        __ways = ::reflect::reflect_core::derived::back_part(__ways, "Shape::Line.0", {
                            ::reflect::reflect_core::Gen::back(
                                &::reflect::reflect_core::combinators::ConstInt::<
                                    u8,
                                    {
                                        let __bound: u8 = 1;
                                        __bound as i128
                                    },
                                    {
                                        let __bound: u8 = 9;
                                        __bound as i128
                                    },
                                >::new("Shape::Line.0"),
                                __f_0,
                            )
                        });
                        if __ways.is_empty() {
                            return __ways;
                        }
                        __ways
                    })();
                    __VARIANTS.ways(__limited, 1usize, __fields)
                }
                Shape::Group { parts: __f_parts, name: __f_name, .. } => {
                    if __limited {
                        return ::std::vec::Vec::new();
                    }
                    let __fields = (|| -> ::std::vec::Vec<::reflect::reflect_core::Way> {
                        #[allow(unused_mut)]
                        let mut __ways = ::std::vec![::reflect::reflect_core::Way::empty()];
                        __ways = ::reflect::reflect_core::derived::back_part(
                            __ways,
                            "Shape::Group.parts",
                            ::reflect::reflect_core::Gen::back(&self.__g_Group_parts, __f_parts),
                        );
                        if __ways.is_empty() {
                            return __ways;
                        }
                        __ways = ::reflect::reflect_core::derived::back_part(
                            __ways,
                            "Shape::Group.name",
                            ::reflect::reflect_core::Gen::back(&self.__g_Group_name, __f_name),
                        );
                        if __ways.is_empty() {
                            return __ways;
                        }
                        __ways
                    })();
                    __VARIANTS.ways(__limited, 2usize, __fields)
                }
            }
        }
    }
};
