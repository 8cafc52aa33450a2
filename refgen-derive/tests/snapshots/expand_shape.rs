#[allow(non_upper_case_globals, non_snake_case, non_camel_case_types, clippy::all)]
const _: () = {
    const __VARIANTS: ::refgen::refgen_core::__private::Variants = ::refgen::refgen_core::__private::Variants::new(
        "Shape",
        &[
            ::refgen::refgen_core::Opt { label: "Dot", weight: 2u32 },
            ::refgen::refgen_core::Opt { label: "Line", weight: 1u32 },
            ::refgen::refgen_core::Opt { label: "Group", weight: 1u32 },
        ],
        2usize,
    );
    #[doc(hidden)]
    struct __ReflectGen<__G0, __G1>
    where
        __G0: ::refgen::refgen_core::Gen<Value = Vec<Shape>>,
        __G1: ::refgen::refgen_core::Gen<Value = String>,
    {
        __g_Group_parts: __G0,
        __g_Group_name: __G1,
        __marker: ::core::marker::PhantomData<fn() -> Shape>,
    }
    impl<__G0, __G1> __ReflectGen<__G0, __G1>
    where
        __G0: ::refgen::refgen_core::Gen<Value = Vec<Shape>>,
        __G1: ::refgen::refgen_core::Gen<Value = String>,
    {
        #[allow(unused_variables)]
        fn __assume(__value: &Shape) -> bool {
            {
                let __reflect_self = __value;
                ::refgen::refgen_core::__private::assume_bool(__reflect_self.depth() < 4)
            }
        }
        #[allow(unused_variables, clippy::all)]
        fn __run_variant<__A: ::refgen::refgen_core::gen::Answerer + ?::core::marker::Sized>(
            &self,
            __c: u64,
            __src: &mut __A,
        ) -> ::core::result::Result<Shape, ::refgen::refgen_core::Stop> {
            match __c {
                0u64 => {
                    if let ::core::option::Option::Some(__r) =
                        ::refgen::refgen_core::__private::run_variant::<Shape, _>("Shape::Dot", __src, |__v| {
                            ::core::matches!(__v, Shape::Dot)
                        })
                    {
                        return __r;
                    }
                    ::core::result::Result::Ok(Shape::Dot)
                }
                1u64 => {
                    if let ::core::option::Option::Some(__r) =
                        ::refgen::refgen_core::__private::run_variant::<Shape, _>("Shape::Line", __src, |__v| {
                            ::core::matches!(__v, Shape::Line(..))
                        })
                    {
                        return __r;
                    }
                    let __f_0: u8 = {
                        ::refgen::refgen_core::__private::run_field(
                            &::refgen::refgen_core::combinators::ConstInt::<
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
                    if let ::core::option::Option::Some(__r) =
                        ::refgen::refgen_core::__private::run_variant::<Shape, _>("Shape::Group", __src, |__v| {
                            ::core::matches!(__v, Shape::Group { .. })
                        })
                    {
                        return __r;
                    }
                    let __f_parts: Vec<Shape> = ::refgen::refgen_core::__private::run_field(
                        &self.__g_Group_parts,
                        "Shape::Group.parts",
                        __src,
                    )?;
                    let __f_name: String =
                        ::refgen::refgen_core::__private::run_field(&self.__g_Group_name, "Shape::Group.name", __src)?;
                    ::core::result::Result::Ok(Shape::Group { parts: __f_parts, name: __f_name })
                }
                _ => ::core::result::Result::Err(::refgen::refgen_core::Stop::Rejected),
            }
        }
        #[doc = r" The value, made once."]
        #[allow(unused_variables)]
        #[inline]
        fn __once<__A: ::refgen::refgen_core::gen::Answerer + ?::core::marker::Sized>(
            &self,
            __src: &mut __A,
            __frame: &::refgen::refgen_core::__private::Frame,
        ) -> ::core::result::Result<Shape, ::refgen::refgen_core::Stop> {
            let __limited = __frame.at_limit(::refgen::refgen_core::__private::DEFAULT_DEPTH);
            let __c = { __VARIANTS.choose(__src, __limited)? };
            let __r = self.__run_variant(__c, __src);
            ::refgen::refgen_core::gen::Answerer::leave(__src);
            __r
        }
        #[doc = r" The value, made again while it fails the condition on every value."]
        #[inline]
        fn __every<__A: ::refgen::refgen_core::gen::Answerer + ?::core::marker::Sized>(
            &self,
            __src: &mut __A,
            __frame: &::refgen::refgen_core::__private::Frame,
        ) -> ::core::result::Result<Shape, ::refgen::refgen_core::Stop> {
            ::refgen::refgen_core::combinators::retrying(
                __src,
                ::refgen::refgen_core::combinators::DEFAULT_RETRIES,
                |__src| self.__once(__src, &__frame),
                Self::__assume,
            )
        }
        #[doc = r" The one forward body, for both `run` and `run_rng`."]
        #[allow(unused_variables)]
        #[inline]
        fn __forward<__A: ::refgen::refgen_core::gen::Answerer + ?::core::marker::Sized>(
            &self,
            __src: &mut __A,
        ) -> ::core::result::Result<Shape, ::refgen::refgen_core::Stop> {
            let __frame = ::refgen::refgen_core::__private::Frame::enter();
            if __frame.too_deep() {
                return ::core::result::Result::Err(::refgen::refgen_core::Stop::Void);
            }
            self.__every(__src, &__frame)
        }
    }
    impl ::refgen::refgen_core::Reflective for Shape {
        fn generator() -> ::refgen::refgen_core::BoxGen<Self> {
            ::refgen::refgen_core::__private::cached::<Self>(|| -> ::refgen::refgen_core::BoxGen<Shape> {
                ::std::rc::Rc::new(__ReflectGen::<_, _> {
                    __g_Group_parts: ::refgen::refgen_core::__private::SeqField::<_, Vec<Shape>>::new(
                        "Shape::Group.parts",
                        0,
                        3,
                        ::refgen::refgen_core::__private::DEFAULT_DEPTH,
                        true,
                        ::refgen::refgen_core::combinators::lazy(|| {
                            <Shape as ::refgen::refgen_core::Reflective>::generator()
                        }),
                    ),
                    __g_Group_name: ::refgen::refgen_core::regex::regex("[a-z]{1,4}"),
                    __marker: ::core::marker::PhantomData,
                })
            })
        }
        #[inline]
        fn __overridable() -> ::std::vec::Vec<::refgen::refgen_core::__private::Overridable> {
            ::std::vec![
                ::refgen::refgen_core::__private::Overridable::of::<Shape>("Shape::Dot"),
                ::refgen::refgen_core::__private::Overridable::of::<Shape>("Shape::Line"),
                ::refgen::refgen_core::__private::Overridable::of::<u8>("Shape::Line.0"),
                ::refgen::refgen_core::__private::Overridable::of::<Shape>("Shape::Group"),
                ::refgen::refgen_core::__private::Overridable::of::<Vec<Shape>>("Shape::Group.parts"),
                ::refgen::refgen_core::__private::Overridable::of::<String>("Shape::Group.name")
            ]
        }
    }
    impl<__G0, __G1> ::refgen::refgen_core::Gen for __ReflectGen<__G0, __G1>
    where
        __G0: ::refgen::refgen_core::Gen<Value = Vec<Shape>>,
        __G1: ::refgen::refgen_core::Gen<Value = String>,
    {
        type Value = Shape;
        fn run(
            &self,
            __src: &mut dyn ::refgen::refgen_core::Source,
        ) -> ::core::result::Result<Shape, ::refgen::refgen_core::Stop> {
            self.__forward(__src)
        }
        fn run_rng(
            &self,
            __rng: &mut ::refgen::refgen_core::DetRng,
        ) -> ::core::result::Result<Shape, ::refgen::refgen_core::Stop> {
            self.__forward(__rng)
        }
        #[allow(unused_variables)]
        fn back(&self, __target: &Shape) -> ::std::vec::Vec<::refgen::refgen_core::Way> {
            if !(Self::__assume)(__target) {
                return ::std::vec::Vec::new();
            }
            let __frame = ::refgen::refgen_core::__private::Frame::enter();
            if __frame.too_deep() {
                return ::std::vec::Vec::new();
            }
            let __limited = __frame.at_limit(::refgen::refgen_core::__private::DEFAULT_DEPTH);
            #[allow(unused_variables)]
            match __target {
                Shape::Dot => {
                    let __fields = match ::refgen::refgen_core::__private::back_variant::<Shape>("Shape::Dot", __target)
                    {
                        ::core::option::Option::Some(__w) => __w,
                        ::core::option::Option::None => (|| -> ::std::vec::Vec<::refgen::refgen_core::Way> {
                            #[allow(unused_mut)]
                            let mut __ways = ::std::vec![::refgen::refgen_core::Way::empty()];
                            __ways
                        })(),
                    };
                    __VARIANTS.ways(__limited, 0usize, __fields)
                }
                Shape::Line(__f_0, ..) => {
                    let __fields =
                        match ::refgen::refgen_core::__private::back_variant::<Shape>("Shape::Line", __target) {
                            ::core::option::Option::Some(__w) => __w,
                            ::core::option::Option::None => (|| -> ::std::vec::Vec<::refgen::refgen_core::Way> {
                                #[allow(unused_mut)]
                                let mut __ways = ::std::vec![::refgen::refgen_core::Way::empty()];
                                __ways = ::refgen::refgen_core::__private::back_part(__ways, "Shape::Line.0", {
                                    ::refgen::refgen_core::__private::back_field(
                                        &::refgen::refgen_core::combinators::ConstInt::<
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
                                        __f_0,
                                    )
                                });
                                if __ways.is_empty() {
                                    return __ways;
                                }
                                __ways
                            })(),
                        };
                    __VARIANTS.ways(__limited, 1usize, __fields)
                }
                Shape::Group { parts: __f_parts, name: __f_name, .. } => {
                    if __limited {
                        return ::std::vec::Vec::new();
                    }
                    let __fields =
                        match ::refgen::refgen_core::__private::back_variant::<Shape>("Shape::Group", __target) {
                            ::core::option::Option::Some(__w) => __w,
                            ::core::option::Option::None => (|| -> ::std::vec::Vec<::refgen::refgen_core::Way> {
                                #[allow(unused_mut)]
                                let mut __ways = ::std::vec![::refgen::refgen_core::Way::empty()];
                                __ways = ::refgen::refgen_core::__private::back_part(
                                    __ways,
                                    "Shape::Group.parts",
                                    ::refgen::refgen_core::__private::back_field(
                                        &self.__g_Group_parts,
                                        "Shape::Group.parts",
                                        __f_parts,
                                    ),
                                );
                                if __ways.is_empty() {
                                    return __ways;
                                }
                                __ways = ::refgen::refgen_core::__private::back_part(
                                    __ways,
                                    "Shape::Group.name",
                                    ::refgen::refgen_core::__private::back_field(
                                        &self.__g_Group_name,
                                        "Shape::Group.name",
                                        __f_name,
                                    ),
                                );
                                if __ways.is_empty() {
                                    return __ways;
                                }
                                __ways
                            })(),
                        };
                    __VARIANTS.ways(__limited, 2usize, __fields)
                }
            }
        }
    }
};
